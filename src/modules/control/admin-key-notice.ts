/** The generated admin key goes to the terminal (stderr) once, like the first start's token. */
export function printAdminKey(key: string, base: string): void {
  const lines = [
    '',
    'cloudplane: the control API (reset, snapshots, seed, clock) is on at /_cloudplane.',
    'Its admin key is shown this once; keep it (or set CLOUDPLANE_ADMIN_KEY):',
    '',
    `  ${key}`,
    '',
    `  curl -H "X-Cloudplane-Admin-Key: ${key}" ${base}/_cloudplane/clock`,
    '',
  ]
  process.stderr.write(`${lines.join('\n')}\n`)
}

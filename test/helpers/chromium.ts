import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'

/** Debian's chromium package: the browser tests never download one. */
export const CHROMIUM = '/usr/bin/chromium'

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Installs chromium from the distribution's packages when it is missing (CI machines start without it). */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env })
}

/** A headless chromium on a fresh profile, removed when closed. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  ensureChromium()
  const profile = mkdtempSync(join(tmpdir(), 'cloudplane-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 800, height: 700 },
  })
  return {
    context,
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

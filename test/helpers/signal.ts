/** A promise a test settles by hand: `fire()` resolves `fired` (a gate, or a "this happened"). */
export interface Signal {
  fired: Promise<void>
  fire(): void
}

export function signal(): Signal {
  let fire!: () => void
  const fired = new Promise<void>((resolve) => {
    fire = resolve
  })
  return { fired, fire }
}

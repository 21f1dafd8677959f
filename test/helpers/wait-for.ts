import { setTimeout as sleep } from 'node:timers/promises'

export interface WaitForOptions {
  /** Give up after this many milliseconds. */
  timeout?: number
  /** Pause between two checks, in milliseconds. */
  interval?: number
  /** What was awaited, for the timeout error (a function to describe the state at that moment). */
  message?: string | (() => string)
}

/**
 * Checks `condition` until it returns something truthy, and returns that; fails after `timeout`.
 * For a state that other code (a background loop, another process, a stream) reaches in its own
 * time. An error thrown by `condition` ends the wait at once.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { timeout = 5000, interval = 10, message = 'the condition' }: WaitForOptions = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeout
  for (;;) {
    const result = await condition()
    if (result) return result as NonNullable<T>
    if (Date.now() >= deadline) {
      const what = typeof message === 'function' ? message() : message
      throw new Error(`waited ${timeout} ms for ${what}`)
    }
    await sleep(interval)
  }
}

/** A FIFO lock: one holder at a time, the others queue in arrival order. */
export class Mutex {
  #locked = false
  readonly #queue: Array<() => void> = []

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true
      return Promise.resolve()
    }
    return new Promise((resolve) => this.#queue.push(resolve))
  }

  unlock(): void {
    const next = this.#queue.shift()
    if (next) next()
    else this.#locked = false
  }

  get locked(): boolean {
    return this.#locked
  }
}

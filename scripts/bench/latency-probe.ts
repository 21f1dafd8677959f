import { Agent, request } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'

/**
 * A paced latency probe: one keep-alive connection sending a GET every `intervalMs`. Unlike a
 * saturating load it leaves the cores to the work being observed, and it keeps sub-millisecond
 * resolution, which autocannon's whole milliseconds do not.
 *
 * A request held back because the previous answer came late is timed from when it was due, not
 * from when it went out, so a stalled server weighs in the percentiles as long as it stalled
 * (coordinated omission, as wrk2 corrects it). A request the probe's own timer woke late for is
 * timed from when it went out: that lateness is the client's, not the server's.
 */
export interface Probe {
  /** Stops the probe; resolves with every latency it saw, in milliseconds. */
  stop(): Promise<number[]>
}

/** The q-quantile (0..1) of a set of latencies, nearest-rank. */
export function percentile(latencies: number[], q: number): number {
  const sorted = [...latencies].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0
}

export function startProbe(url: string, intervalMs = 10): Probe {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const latencies: number[] = []
  let stopped = false
  const once = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent }, (res) => {
        res.resume()
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`probe: ${res.statusCode}`)),
        )
      })
      req.on('error', reject)
      req.end()
    })
  const loop = (async () => {
    const step = BigInt(Math.round(intervalMs * 1e6))
    let due = process.hrtime.bigint()
    while (!stopped) {
      const now = process.hrtime.bigint()
      let start = due
      if (due > now) {
        await sleep(Number(due - now) / 1e6)
        start = process.hrtime.bigint()
      }
      await once()
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6)
      due += step
    }
  })()
  return {
    async stop() {
      stopped = true
      await loop
      agent.destroy()
      return latencies
    },
  }
}

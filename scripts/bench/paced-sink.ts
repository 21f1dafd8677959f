/**
 * The image bench's floor: an HTTP server, in its own process, that reads a PUT body at a given
 * rate and throws it away, so that the upload client can send the same file at the pace the server
 * took it while the latency probe measures what the sending alone costs the machine:
 *   node scripts/bench/paced-sink.ts <MiB per second>
 * Prints its port on stdout once it listens.
 */
import { createServer } from 'node:http'

const rate = Number(process.argv[2]) * 1024 * 1024
if (!(rate > 0)) throw new Error('usage: paced-sink.ts <MiB per second>')

const server = createServer((req, res) => {
  const started = Date.now()
  let received = 0
  req.on('data', (chunk: Buffer) => {
    received += chunk.length
    const wait = started + (received / rate) * 1000 - Date.now()
    if (wait > 1) {
      req.pause()
      setTimeout(() => req.resume(), wait)
    }
  })
  req.on('end', () => res.end('{}'))
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`${typeof address === 'object' && address !== null ? address.port : ''}\n`)
})
process.on('disconnect', () => process.exit(0))

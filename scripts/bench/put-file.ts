/**
 * The upload client of the image bench, in its own process as `curl -T` would be, so that the
 * latency probe in the bench process does not share an event loop with the upload:
 *   node scripts/bench/put-file.ts <upload_to URL> <file>
 * Prints the seconds the PUT took, measured here, on stdout.
 */
import { createReadStream, statSync } from 'node:fs'
import { request } from 'node:http'

const [url, path] = process.argv.slice(2)
if (url === undefined || path === undefined) throw new Error('usage: put-file.ts <url> <file>')

const started = process.hrtime.bigint()
const req = request(url, {
  method: 'PUT',
  headers: { 'content-type': 'application/octet-stream', 'content-length': statSync(path).size },
})
req.on('response', (res) => {
  let body = ''
  res.on('data', (d) => {
    body += d
  })
  res.on('end', () => {
    if (res.statusCode !== 200) {
      process.stderr.write(`upload answered ${res.statusCode}: ${body}\n`)
      process.exitCode = 1
      return
    }
    process.stdout.write(`${Number(process.hrtime.bigint() - started) / 1e9}\n`)
  })
})
req.on('error', (error) => {
  process.stderr.write(`${error.message}\n`)
  process.exitCode = 1
})
createReadStream(path, { highWaterMark: 1024 * 1024 }).pipe(req)

/**
 * The ceiling of a benchmark case: a bare node:http server replaying one captured response
 * (status, headers, body) for every request. Reads the response as JSON on stdin.
 */
import { createServer } from 'node:http'

const port = Number(process.argv[2])
let input = ''
for await (const chunk of process.stdin) input += chunk
const { status, headers, body } = JSON.parse(input) as {
  status: number
  headers: Array<[string, string]>
  body: string
}
const bytes = Buffer.from(body, 'base64')
const flat = headers.flat()

createServer((request, response) => {
  if (request.url === '/__ready') {
    response.end('ok')
    return
  }
  // Drain any request body so the connection can be reused, as a real server would.
  request.resume()
  request.on('end', () => {
    response.writeHead(status, flat)
    response.end(bytes)
  })
}).listen(port, '127.0.0.1')

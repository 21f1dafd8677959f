import { once } from 'node:events'
import { connect, type Socket } from 'node:net'

/**
 * A raw TCP connection to a local server, for what `inject` cannot send (half-sent requests,
 * pipelining, malformed HTTP): what it has received so far, and all of it once it closes.
 */
export async function rawConnection(
  port: number,
): Promise<{ socket: Socket; received: () => string; closed: Promise<string> }> {
  const socket = connect(port, '127.0.0.1')
  await once(socket, 'connect')
  let received = ''
  socket.on('data', (chunk) => {
    received += chunk
  })
  socket.on('error', () => {})
  return { socket, received: () => received, closed: once(socket, 'close').then(() => received) }
}

import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { gzipSync } from 'node:zlib'
import { ApiError } from '../../../src/common/errors.ts'
import { createInspection } from '../../../src/modules/images/image-inspection.ts'
import { rawImage } from './image-helpers.ts'

/** Writes `data` into an inspection in pieces of `size` bytes, all in one turn of the event loop. */
function inspectInPieces(data: Buffer, size: number) {
  const { input, done } = createInspection(64 * 1024 * 1024)
  for (let at = 0; at < data.length; at += size) input.write(data.subarray(at, at + size))
  input.end()
  return done
}

describe('image inspection: pieces that arrive while gunzip is busy go on joined', () => {
  it('hashes and measures the same image whatever the pieces it came in', async () => {
    // Random bytes after a raw header: little to compress, so many pieces queue behind the first.
    const raw = Buffer.concat([rawImage(4096, 'pieces'), randomBytes(3 * 1024 * 1024)])
    const compressed = gzipSync(raw)
    const expected = createHash('sha256').update(raw).digest('hex')
    for (const size of [1, 4096, 65_536, compressed.length]) {
      const piece = size === 1 ? compressed.subarray(0, 200_000) : compressed
      if (size === 1) {
        // A byte at a time through a truncated stream: refused, not hashed as if whole.
        await assert.rejects(inspectInPieces(piece, 1))
        continue
      }
      const result = await inspectInPieces(piece, size)
      assert.deepEqual(result, { uncompressedBytes: raw.length, sha256: expected }, `pieces of ${size}`)
    }
  })

  it('still refuses a qcow2 image sent in many small pieces', async () => {
    const qcow2 = Buffer.alloc(1024 * 1024)
    qcow2.write('QFI\xfb', 0, 'latin1')
    const refusal = await inspectInPieces(gzipSync(qcow2), 1024).then(
      () => undefined,
      (error: unknown) => error,
    )
    assert.ok(refusal instanceof ApiError, String(refusal))
    assert.match(JSON.stringify(refusal.errors), /qcow2/)
  })
})

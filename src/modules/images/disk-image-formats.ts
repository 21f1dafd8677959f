/**
 * Recognises disk image containers that are not raw images, from their magic numbers, so an upload
 * of the wrong format is refused with a hint instead of being stored as an unbootable "disk".
 * A raw image has no signature of its own; it is whatever is left.
 */

/** Bytes from the start of the uncompressed data that the checks need. */
export const HEAD_BYTES = 72
/** Bytes from the end: a fixed VHD carries its only footer there. */
export const TAIL_BYTES = 512

interface Signature {
  format: string
  offset: number
  magic: Buffer
}

const ascii = (text: string) => Buffer.from(text, 'latin1')

const HEAD_SIGNATURES: Signature[] = [
  { format: 'qcow2 (or qcow)', offset: 0, magic: Buffer.from([0x51, 0x46, 0x49, 0xfb]) },
  { format: 'VMDK', offset: 0, magic: ascii('KDMV') },
  { format: 'VMDK', offset: 0, magic: ascii('COWD') },
  { format: 'VMDK', offset: 0, magic: ascii('# Disk DescriptorFile') },
  { format: 'VHDX', offset: 0, magic: ascii('vhdxfile') },
  { format: 'VHD', offset: 0, magic: ascii('conectix') },
  // VDI: a text banner, then the signature 0xbeda107f (little-endian) at offset 64.
  { format: 'VDI', offset: 64, magic: Buffer.from([0x7f, 0x10, 0xda, 0xbe]) },
  { format: 'gzip (compressed twice)', offset: 0, magic: Buffer.from([0x1f, 0x8b]) },
]

const VHD_FOOTER = ascii('conectix')

const matches = (data: Buffer, sig: Signature) =>
  data.length >= sig.offset + sig.magic.length &&
  data.subarray(sig.offset, sig.offset + sig.magic.length).equals(sig.magic)

/**
 * The container format the data is in, or undefined for what may be a raw disk image. `head` is
 * the first HEAD_BYTES (or all, if shorter), `tail` the last TAIL_BYTES.
 */
export function detectNonRawFormat(head: Buffer, tail: Buffer): string | undefined {
  for (const sig of HEAD_SIGNATURES) if (matches(head, sig)) return sig.format
  // A fixed VHD is raw data plus a 512-byte footer (511 in very old files).
  for (const at of [tail.length - 512, tail.length - 511]) {
    if (at >= 0 && tail.subarray(at, at + VHD_FOOTER.length).equals(VHD_FOOTER)) return 'VHD'
  }
  return undefined
}

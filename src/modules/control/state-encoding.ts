import { gunzipSync, gzipSync } from 'node:zlib'
import type { StateData } from './state-capture.ts'

/** A state as stored and exported: gzip of its JSON. */
export function encodeState(state: StateData): Buffer {
  return gzipSync(JSON.stringify(state), { level: 1 })
}

/** The state in an exported file, or undefined when the bytes are not one. */
export function decodeState(bytes: Buffer): StateData | undefined {
  try {
    const text =
      bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8')
    const state = JSON.parse(text) as StateData
    if (state?.format !== 'cloudplane-state' || state.version !== 1 || typeof state.tables !== 'object') {
      return undefined
    }
    return state
  } catch {
    return undefined
  }
}

import { Type } from 'typebox'

/** Any JSON object: keys and values are the client's business. */
export const PreferencesSchema = Type.Object({}, { additionalProperties: true })
export type Preferences = Record<string, unknown>

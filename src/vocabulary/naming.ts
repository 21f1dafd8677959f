/**
 * The wire vocabularies a deployment can choose (CLOUDPLANE_NAMING): the API document's neutral
 * words, or the real service's, so that its official clients work unchanged.
 */
export const NAMINGS = ['document', 'linode'] as const
export type Naming = (typeof NAMINGS)[number]

export const DEFAULT_NAMING: Naming = 'document'

export const isNaming = (text: string): text is Naming => (NAMINGS as readonly string[]).includes(text)

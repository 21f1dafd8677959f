import { createHash } from 'node:crypto'

/** The avatar id shown with a script: the MD5 of its author's address, as the avatar service keys them. */
export const gravatarId = (address: string): string =>
  createHash('md5').update(address.trim().toLowerCase()).digest('hex')

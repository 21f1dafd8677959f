import { categoryAuth } from '../../common/route-schemas.ts'

/** What the instance routes and those of their profiles, interfaces and disks share. */
export const tags = ['Compute instances']
export const { read, write } = categoryAuth('computes')

import { advanceInstanceWork } from '../../modules/compute/instances/instance-work.service.ts'
import type { JobHandler } from '../job-kinds.ts'

export const instanceWork: JobHandler<'instance-work'> = (context, payload) =>
  advanceInstanceWork(context, payload)

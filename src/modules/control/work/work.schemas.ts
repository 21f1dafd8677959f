import { Type } from 'typebox'
import { WORK_KINDS } from '../../../jobs/work-durations.ts'

const Seconds = Type.Integer({ minimum: 0, maximum: 86_400, description: 'seconds; 0 is instant' })

export const WorkDurationsSchema = Type.Object(Object.fromEntries(WORK_KINDS.map((k) => [k, Seconds])))

export const WorkDurationsBodySchema = Type.Object(
  {
    preset: Type.Optional(Type.Union([Type.Literal('instant'), Type.Literal('realistic')])),
    ...Object.fromEntries(WORK_KINDS.map((k) => [k, Type.Optional(Seconds)])),
  },
  { additionalProperties: false },
)

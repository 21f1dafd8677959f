/** `npm run seed:schema`: writes docs/seed.schema.json from the seed file's TypeBox schema (commit it). */
import { writeFileSync } from 'node:fs'
import { seedSchemaDocument } from '../src/modules/control/seed/seed-schema-document.ts'

writeFileSync(new URL('../docs/seed.schema.json', import.meta.url), seedSchemaDocument())
console.log('docs/seed.schema.json written')

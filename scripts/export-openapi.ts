/** `npm run openapi:export`: writes openapi.json from the route schemas (commit the result). */
import { writeFileSync } from 'node:fs'
import { generateOpenApiDocument } from '../src/openapi-document.ts'

const document = await generateOpenApiDocument()
writeFileSync(new URL('../openapi.json', import.meta.url), document)
const paths = Object.keys((JSON.parse(document) as { paths: object }).paths).length
console.log(`openapi.json: ${paths} paths`)

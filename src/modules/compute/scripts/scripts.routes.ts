import { categoryAuth } from '../../../common/route-schemas.ts'
import { routeModule, routeTable } from '../../../common/route-table.ts'
import { contextOf, publicContextOf } from '../../../plugins/request-context.ts'
import type { DeployImages } from '../instances/deploy-image.ts'
import {
  CreateScriptBodySchema,
  ScriptPageSchema,
  ScriptParams,
  ScriptSchema,
  UpdateScriptBodySchema,
} from './scripts.schemas.ts'
import * as scripts from './scripts.service.ts'

const tags = ['Scripts']
/** Public scripts need no token; a token shows the account's own too. */
const auth = categoryAuth('stackscripts')
const read = { public: true, ...auth.read }
const { write } = auth

export interface ScriptsRoutesOptions {
  /** Where a script's `images` are checked (the images domain, wired in src/routes.ts). */
  images: DeployImages
}

export const scriptsRoutes = routeModule(
  { tags, context: contextOf },
  (api, app, options: ScriptsRoutesOptions) => {
    const publicApi = routeTable(app, { tags, context: publicContextOf })

    publicApi.getList('/compute/scripts', {
      auth: read,
      operationId: 'getScripts',
      summary: "List public scripts and, with a token, the account's own",
      response: ScriptPageSchema,
      handler: (ctx, request) => scripts.listScripts(ctx, request.list),
    })

    publicApi.get('/compute/scripts/:scriptId', {
      auth: read,
      operationId: 'getScript',
      summary: 'View a script: a public one, or one of the account',
      params: ScriptParams,
      response: ScriptSchema,
      handler: (ctx, request) => scripts.getScript(ctx, request.ids),
    })

    api.post('/compute/scripts', {
      auth: write,
      operationId: 'createScript',
      summary: 'Create a script; its user-defined fields are read from its UDF tags',
      body: CreateScriptBodySchema,
      response: ScriptSchema,
      handler: (ctx, request) => scripts.createScript(ctx, request.body, options.images),
    })

    api.put('/compute/scripts/:scriptId', {
      auth: write,
      operationId: 'updateScript',
      summary: 'Change a script of the account; a public script cannot be made private',
      params: ScriptParams,
      body: UpdateScriptBodySchema,
      response: ScriptSchema,
      handler: (ctx, request) => scripts.updateScript(ctx, request.ids, request.body, options.images),
    })

    api.delete('/compute/scripts/:scriptId', {
      auth: write,
      operationId: 'deleteScript',
      summary: 'Delete a private script of the account',
      params: ScriptParams,
      handler: (ctx, request) => scripts.deleteScript(ctx, request.ids),
    })
  },
)

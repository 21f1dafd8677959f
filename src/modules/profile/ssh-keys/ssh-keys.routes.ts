import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { listInput, listRoute, route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import {
  CreateSshKeyBodySchema,
  SshKeyPageSchema,
  SshKeyParamsSchema,
  SshKeySchema,
  UpdateSshKeyBodySchema,
} from './ssh-keys.schemas.ts'
import * as sshKeys from './ssh-keys.service.ts'

export const sshKeysRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/sshkeys',
    listRoute(
      profileRead,
      { operationId: 'getSSHKeys', summary: 'List the SSH keys on your profile', tags },
      SshKeyPageSchema,
    ),
    async (request) => sshKeys.listSshKeys(contextOf(request), listInput(request)),
  )

  app.get(
    '/profile/sshkeys/:sshKeyId',
    route(
      profileRead,
      { operationId: 'getSSHKey', summary: 'View an SSH key', tags, params: SshKeyParamsSchema },
      SshKeySchema,
    ),
    async (request) => sshKeys.getSshKey(contextOf(request), { sshKeyId: parseId(request.params.sshKeyId) }),
  )

  app.post(
    '/profile/sshkeys',
    route(
      profileWrite,
      {
        operationId: 'addSSHKey',
        summary:
          'Add an SSH key (ssh-rsa, ssh-dss, ecdsa-sha2-nistp256/384/521, ssh-ed25519, sk-*) to your profile',
        tags,
        body: CreateSshKeyBodySchema,
      },
      SshKeySchema,
    ),
    async (request) => sshKeys.addSshKey(contextOf(request), request.body),
  )

  app.put(
    '/profile/sshkeys/:sshKeyId',
    route(
      profileWrite,
      {
        operationId: 'updateSSHKey',
        summary: "Change an SSH key's label (the key itself cannot change)",
        tags,
        params: SshKeyParamsSchema,
        body: UpdateSshKeyBodySchema,
      },
      SshKeySchema,
    ),
    async (request) =>
      sshKeys.updateSshKey(contextOf(request), { sshKeyId: parseId(request.params.sshKeyId) }, request.body),
  )

  app.delete(
    '/profile/sshkeys/:sshKeyId',
    route(
      profileWrite,
      {
        operationId: 'deleteSSHKey',
        summary: 'Remove an SSH key from your profile (copies on instances stay)',
        tags,
        params: SshKeyParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await sshKeys.deleteSshKey(contextOf(request), { sshKeyId: parseId(request.params.sshKeyId) })
      return {}
    },
  )
}

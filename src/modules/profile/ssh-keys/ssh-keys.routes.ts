import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { parsePageQuery } from '../../../common/pagination.ts'
import {
  EmptyObjectSchema,
  errorResponses,
  FilterHeadersSchema,
  PageQuerySchema,
} from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
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
    {
      schema: {
        operationId: 'getSSHKeys',
        summary: 'List the SSH keys on your profile',
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: SshKeyPageSchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) =>
      sshKeys.listSshKeys(
        app.db,
        requireActor(request),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      ),
  )

  app.get(
    '/profile/sshkeys/:sshKeyId',
    {
      schema: {
        operationId: 'getSSHKey',
        summary: 'View an SSH key',
        tags,
        params: SshKeyParamsSchema,
        response: { 200: SshKeySchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) => sshKeys.getSshKey(app.db, requireActor(request), parseId(request.params.sshKeyId)),
  )

  app.post(
    '/profile/sshkeys',
    {
      schema: {
        operationId: 'addSSHKey',
        summary:
          'Add an SSH key (ssh-rsa, ssh-dss, ecdsa-sha2-nistp256/384/521, ssh-ed25519, sk-*) to your profile',
        tags,
        body: CreateSshKeyBodySchema,
        response: { 200: SshKeySchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => sshKeys.addSshKey(app.db, app.clock, requireActor(request), request.body),
  )

  app.put(
    '/profile/sshkeys/:sshKeyId',
    {
      schema: {
        operationId: 'updateSSHKey',
        summary: "Change an SSH key's label (the key itself cannot change)",
        tags,
        params: SshKeyParamsSchema,
        body: UpdateSshKeyBodySchema,
        response: { 200: SshKeySchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) =>
      sshKeys.updateSshKey(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.sshKeyId),
        request.body,
      ),
  )

  app.delete(
    '/profile/sshkeys/:sshKeyId',
    {
      schema: {
        operationId: 'deleteSSHKey',
        summary: 'Remove an SSH key from your profile (copies on instances stay)',
        tags,
        params: SshKeyParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => {
      await sshKeys.deleteSshKey(app.db, app.clock, requireActor(request), parseId(request.params.sshKeyId))
      return {}
    },
  )
}

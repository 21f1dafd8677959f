import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import {
  CreateSshKeyBodySchema,
  SshKeyPageSchema,
  SshKeyParams,
  SshKeySchema,
  UpdateSshKeyBodySchema,
} from './ssh-keys.schemas.ts'
import * as sshKeys from './ssh-keys.service.ts'

export const sshKeysRoutes = routeModule({ tags, context: contextOf }, (api) => {
  api.getList('/profile/sshkeys', {
    auth: profileRead,
    operationId: 'getSSHKeys',
    summary: 'List the SSH keys on your profile',
    response: SshKeyPageSchema,
    handler: (ctx, request) => sshKeys.listSshKeys(ctx, request.list),
  })

  api.get('/profile/sshkeys/:sshKeyId', {
    auth: profileRead,
    operationId: 'getSSHKey',
    summary: 'View an SSH key',
    params: SshKeyParams,
    response: SshKeySchema,
    handler: (ctx, request) => sshKeys.getSshKey(ctx, request.ids),
  })

  api.post('/profile/sshkeys', {
    auth: profileWrite,
    operationId: 'addSSHKey',
    summary:
      'Add an SSH key (ssh-rsa, ssh-dss, ecdsa-sha2-nistp256/384/521, ssh-ed25519, sk-*) to your profile',
    body: CreateSshKeyBodySchema,
    response: SshKeySchema,
    handler: (ctx, request) => sshKeys.addSshKey(ctx, request.body),
  })

  api.put('/profile/sshkeys/:sshKeyId', {
    auth: profileWrite,
    operationId: 'updateSSHKey',
    summary: "Change an SSH key's label (the key itself cannot change)",
    params: SshKeyParams,
    body: UpdateSshKeyBodySchema,
    response: SshKeySchema,
    handler: (ctx, request) => sshKeys.updateSshKey(ctx, request.ids, request.body),
  })

  api.delete('/profile/sshkeys/:sshKeyId', {
    auth: profileWrite,
    operationId: 'deleteSSHKey',
    summary: 'Remove an SSH key from your profile (copies on instances stay)',
    params: SshKeyParams,
    handler: (ctx, request) => sshKeys.deleteSshKey(ctx, request.ids),
  })
})

import { gzipSync } from 'node:zlib'
import type { TestApp } from '../../helpers/app.ts'
import type { TestUser } from '../../helpers/factories.ts'

/** A small raw disk image: an MBR-like first sector, then zeros (and a marker so hashes differ). */
export function rawImage(bytes: number, marker = 'cloudplane'): Buffer {
  const data = Buffer.alloc(bytes)
  data.write(marker.slice(0, Math.max(0, bytes - 3)), Math.min(3, bytes))
  if (bytes >= 512) data.writeUInt16BE(0x55aa, 510)
  return data
}

export const gz = (data: Buffer) => gzipSync(data)

export interface StartedUpload {
  image: { id: string; label: string; status: string; size: number }
  uploadTo: string
  /** Path and token of `upload_to`, for `api.request`. */
  path: string
  token: string
}

export async function startUpload(
  api: TestApp,
  owner: TestUser,
  body: Record<string, unknown> = { label: 'uploaded', region: 'us-east' },
): Promise<StartedUpload> {
  const res = await api.request({
    method: 'POST',
    url: '/v4/images/upload',
    headers: owner.headers,
    payload: body,
  })
  if (res.status !== 200) throw new Error(`upload create failed: ${res.status} ${JSON.stringify(res.body)}`)
  const token = String(res.body.upload_to).split('/').at(-1) as string
  // The public URL may carry a path prefix (a proxy's); the app itself serves /image-uploads/<token>.
  return { image: res.body.image, uploadTo: res.body.upload_to, path: `/image-uploads/${token}`, token }
}

/** An upload URL's state: `waiting` (it takes data), `receiving` or `received`; by the image's wire id. */
export async function uploadState(api: TestApp, imageId: string): Promise<string | null | undefined> {
  const row = await api.db
    .selectFrom('images')
    .select('upload_state')
    .where('id', '=', Number(imageId.split('/')[1]))
    .executeTakeFirst()
  return row?.upload_state
}

export function putData(api: TestApp, path: string, payload: Buffer | NodeJS.ReadableStream, headers = {}) {
  return api.request({
    method: 'PUT',
    url: path,
    headers: { 'content-type': 'application/octet-stream', ...headers },
    payload: payload as Buffer,
  })
}

/** A private image that went through the whole upload; returns its wire id and numeric id. */
export async function createImage(
  api: TestApp,
  owner: TestUser,
  label = 'my-image',
  options: { cloudInit?: boolean; description?: string } = {},
): Promise<{ id: string; numericId: number }> {
  const started = await startUpload(api, owner, {
    label,
    region: 'us-east',
    ...(options.cloudInit !== undefined && { cloud_init: options.cloudInit }),
    ...(options.description !== undefined && { description: options.description }),
  })
  const res = await putData(api, started.path, gz(rawImage(4096, label)))
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`)
  return { id: started.image.id, numericId: Number(started.image.id.split('/')[1]) }
}

export interface Disk {
  id: number
  label: string
  filesystem: string
  size: number
}

/** An instance deployed from Debian 12 (an ext4 root disk and a swap disk), with its status as created. */
export async function createInstance(
  api: TestApp,
  owner: TestUser,
): Promise<{ id: number; label: string; status: string; disks: Disk[] }> {
  const res = await api.request({
    method: 'POST',
    url: '/v4/compute/instances',
    headers: owner.headers,
    payload: {
      type: 'g6-standard-1',
      region: 'us-ord',
      image: 'compute/debian12',
      root_pass: 'Correct-Horse-9',
    },
  })
  if (res.status !== 200) throw new Error(`instance create failed: ${JSON.stringify(res.body)}`)
  const disks = await api.request({
    method: 'GET',
    url: `/v4/compute/instances/${res.body.id}/disks`,
    headers: owner.headers,
  })
  return { id: res.body.id, label: res.body.label, status: res.body.status, disks: disks.body.data }
}

export const rootDisk = (instance: { disks: Disk[] }) =>
  instance.disks.find((d) => d.filesystem === 'ext4') as Disk

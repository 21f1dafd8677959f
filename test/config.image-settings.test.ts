import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { after, describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../src/config.ts'

describe('config: images, uploads and the region catalogue', () => {
  const dirs: string[] = []
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true })
  })

  it('has defaults: public URL from HOST and PORT, 5 GB uploads, 6 GB images, blobs under the data dir', () => {
    const config = loadConfig({ PORT: '9000', HOST: '0.0.0.0', DATA_DIR: '/srv/cloudplane' })
    assert.equal(config.publicUrl, 'http://127.0.0.1:9000')
    assert.equal(config.imageUploadLimit, 5 * 1024 ** 3)
    assert.equal(config.imageSizeLimit, 6 * 1024 ** 3)
    assert.equal(config.blobsDir, resolve('/srv/cloudplane/blobs'))
    assert.equal(config.regions, undefined)
  })

  it('takes settings from the environment, and flags over the environment', () => {
    const config = loadConfig(
      {
        CLOUDPLANE_PUBLIC_URL: 'https://cloud.example.com/',
        CLOUDPLANE_IMAGE_UPLOAD_LIMIT: '512M',
        CLOUDPLANE_IMAGE_SIZE_LIMIT: '1048576',
        CLOUDPLANE_BLOBS_DIR: '/mnt/shared/blobs',
      },
      { 'image-size-limit': '2GiB' },
    )
    assert.equal(config.publicUrl, 'https://cloud.example.com')
    assert.equal(config.imageUploadLimit, 512 * 1024 ** 2)
    assert.equal(config.imageSizeLimit, 2 * 1024 ** 3)
    assert.equal(config.blobsDir, '/mnt/shared/blobs')
    assert.equal(loadConfig({ CLOUDPLANE_IMAGE_UPLOAD_LIMIT: '64k' }).imageUploadLimit, 64 * 1024)
    assert.equal(loadConfig({ CLOUDPLANE_IMAGE_UPLOAD_LIMIT: '1.5G' }).imageUploadLimit, 1.5 * 1024 ** 3)
  })

  it('refuses bad values with a one-line message naming the setting', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { CLOUDPLANE_PUBLIC_URL: 'ftp://x' },
        /^CLOUDPLANE_PUBLIC_URL: must be an http:\/\/ or https:\/\/ URL/,
      ],
      [{ CLOUDPLANE_PUBLIC_URL: 'https://x/?a=1' }, /^CLOUDPLANE_PUBLIC_URL: /],
      [
        { CLOUDPLANE_IMAGE_UPLOAD_LIMIT: 'lots' },
        /^CLOUDPLANE_IMAGE_UPLOAD_LIMIT: must be a size such as 5G/,
      ],
      [{ CLOUDPLANE_IMAGE_SIZE_LIMIT: '0' }, /^CLOUDPLANE_IMAGE_SIZE_LIMIT: /],
      [{ CLOUDPLANE_IMAGE_SIZE_LIMIT: '-5G' }, /^CLOUDPLANE_IMAGE_SIZE_LIMIT: /],
      [{ CLOUDPLANE_REGIONS_FILE: '/nonexistent/regions.json' }, /^CLOUDPLANE_REGIONS_FILE: cannot read/],
    ]
    for (const [env, message] of cases) {
      assert.throws(
        () => loadConfig(env),
        (e: Error) => e instanceof ConfigError && message.test(e.message) && !e.message.includes('\n'),
        JSON.stringify(env),
      )
    }
  })

  it('loads and validates the region catalogue file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cloudplane-config-'))
    dirs.push(dir)
    const file = join(dir, 'regions.json')
    await writeFile(
      file,
      JSON.stringify({
        regions: [
          { id: 'lab-1', label: 'Lab', country: 'nl', capabilities: [], resolvers: { ipv4: 'a', ipv6: 'b' } },
        ],
      }),
    )
    assert.equal(loadConfig({ CLOUDPLANE_REGIONS_FILE: file }).regions?.regions[0]?.id, 'lab-1')
    await writeFile(file, JSON.stringify({ regions: [{ id: 'lab-1' }] }))
    assert.throws(
      () => loadConfig({ CLOUDPLANE_REGIONS_FILE: file }),
      (e: Error) =>
        e instanceof ConfigError && /^CLOUDPLANE_REGIONS_FILE: regions\[0\]\.country/.test(e.message),
    )
  })
})

import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CatalogueFileError } from '../../src/catalogue/catalogue-json.ts'
import { PUBLIC_IMAGES } from '../../src/catalogue/images.ts'
import { parseImageCatalogue } from '../../src/catalogue/images-file.ts'

const image = (over: Record<string, unknown> = {}) => ({
  slug: 'debian12',
  label: 'Debian 12',
  vendor: 'Debian',
  size: 1300,
  capabilities: ['cloud-init'],
  deprecated: false,
  eol: '2028-06-10T04:00:00',
  created: '2023-06-10T00:00:00',
  description: '',
  ...over,
})

describe('image catalogue file', () => {
  it('reads images as written, in order', () => {
    const images = parseImageCatalogue({
      images: [image(), image({ slug: 'debian9', eol: null, description: null, deprecated: true })],
    })
    assert.deepEqual(images, [
      image(),
      image({ slug: 'debian9', eol: null, description: null, deprecated: true }),
    ])
  })

  it('ships a valid catalogue', () => {
    assert.equal(PUBLIC_IMAGES.length, 38)
    assert.equal(PUBLIC_IMAGES[0]?.slug, 'almalinux8')
  })

  it('names the first problem', () => {
    const cases: Array<[unknown, RegExp]> = [
      [[], /must hold a JSON object with an "images" array/],
      [{}, /images must be an array/],
      [{ images: [image()], extra: 1 }, /\(file\)\.extra is not a known field/],
      [{ images: [image({ slug: 'Debian 12' })] }, /images\[0\]\.slug must be lowercase/],
      [{ images: [image({ label: '' })] }, /images\[0\]\.label must be a non-empty string/],
      [{ images: [image({ size: -1 })] }, /images\[0\]\.size must be a whole number/],
      [{ images: [image({ size: 1.5 })] }, /images\[0\]\.size must be a whole number/],
      [{ images: [image({ capabilities: ['a', 'a'] })] }, /images\[0\]\.capabilities has duplicates/],
      [{ images: [image({ deprecated: 'no' })] }, /images\[0\]\.deprecated must be true or false/],
      [{ images: [image({ eol: '2028-06-10' })] }, /images\[0\]\.eol must be a time written/],
      [{ images: [image({ created: '2023-02-30T00:00:00' })] }, /images\[0\]\.created must be a time/],
      [{ images: [image({ description: 3 })] }, /images\[0\]\.description must be null or a string/],
      [{ images: [image({ vendr: 'x' })] }, /images\[0\]\.vendr is not a known field/],
      [{ images: [image(), image()] }, /images\[1\]\.slug "debian12" appears twice/],
    ]
    for (const [document, message] of cases) {
      assert.throws(
        () => parseImageCatalogue(document),
        (e: Error) => e instanceof CatalogueFileError && message.test(e.message),
        JSON.stringify(document),
      )
    }
  })
})

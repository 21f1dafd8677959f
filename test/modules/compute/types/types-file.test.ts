import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CatalogueFileError } from '../../../../src/catalogue/catalogue-json.ts'
import { COMPUTE_TYPES } from '../../../../src/modules/compute/types/types.catalogue.ts'
import { parseTypeCatalogue } from '../../../../src/modules/compute/types/types-file.ts'

const type = (over: Record<string, unknown> = {}) => ({
  id: 'g6-nanode-1',
  label: 'Nanode 1GB',
  class: 'nanode',
  memory: 1024,
  disk: 25600,
  transfer: 1000,
  vcpus: 1,
  gpus: 0,
  network_out: 1000,
  price: { hourly: 0.0075, monthly: 5 },
  addons: { backups: { price: { hourly: 0.003, monthly: 2 } } },
  ...over,
})

describe('type catalogue file', () => {
  it('derives region prices from the factors, rounded as the API shows them', () => {
    const [nanode] = parseTypeCatalogue({
      region_price_factors: [{ region: 'id-cgk', factor: 1.2 }],
      types: [type()],
    })
    assert.deepEqual(nanode?.region_prices, [{ id: 'id-cgk', hourly: 0.009, monthly: 6 }])
    assert.deepEqual(nanode?.addons.backups.region_prices, [{ id: 'id-cgk', hourly: 0.0036, monthly: 2.4 }])
    assert.equal(nanode?.successor, null)
  })

  it('ships a valid catalogue', () => {
    assert.equal(COMPUTE_TYPES.length, 28)
    assert.deepEqual(
      COMPUTE_TYPES[0]?.region_prices.map((p) => p.id),
      ['id-cgk', 'br-gru'],
    )
  })

  it('names the first problem', () => {
    const cases: Array<[unknown, RegExp]> = [
      [[], /must hold a JSON object with a "types" array/],
      [{}, /types must be an array/],
      [{ types: [], region_price_factors: {} }, /region_price_factors must be an array/],
      [{ types: [], region_price_factors: [{ region: 'x', factor: 0 }] }, /factor must be a number above 0/],
      [
        {
          types: [],
          region_price_factors: [
            { region: 'x', factor: 1 },
            { region: 'x', factor: 2 },
          ],
        },
        /region_price_factors\[1\]\.region "x" appears twice/,
      ],
      [{ types: [type({ id: 'G6' })] }, /types\[0\]\.id must be lowercase/],
      [{ types: [type({ class: 'huge' })] }, /types\[0\]\.class must be one of nanode, standard/],
      [{ types: [type({ memory: '1024' })] }, /types\[0\]\.memory must be a whole number/],
      [
        { types: [type({ price: { hourly: -1, monthly: 5 } })] },
        /types\[0\]\.price\.hourly must be a number/,
      ],
      [{ types: [type({ addons: {} })] }, /types\[0\]\.addons\.backups must be an object/],
      [
        { types: [type({ price: { hourly: 1, monthly: 5, daily: 0 } })] },
        /price\.daily is not a known field/,
      ],
      [{ types: [type(), type()] }, /types\[1\]\.id "g6-nanode-1" appears twice/],
    ]
    for (const [document, message] of cases) {
      assert.throws(
        () => parseTypeCatalogue(document),
        (e: Error) => e instanceof CatalogueFileError && message.test(e.message),
        JSON.stringify(document),
      )
    }
  })
})

/**
 * The instance type catalogue: the real plans of 2024 (ids, labels, memory and disk in MB,
 * transfer and network_out in GB and Mbps, prices in USD) as the public type list returned them.
 * Two regions were priced differently that year (Jakarta and Sao Paulo), by fixed factors.
 */
export interface TypePrice {
  hourly: number
  monthly: number
}

export interface RegionPrice extends TypePrice {
  id: string
}

export interface CatalogueType {
  id: string
  label: string
  class: 'nanode' | 'standard' | 'highmem' | 'dedicated' | 'gpu'
  memory: number
  disk: number
  transfer: number
  vcpus: number
  gpus: number
  network_out: number
  price: TypePrice
  region_prices: RegionPrice[]
  addons: { backups: { price: TypePrice; region_prices: RegionPrice[] } }
  successor: string | null
}

const REGION_FACTORS: Array<[string, number]> = [
  ['id-cgk', 1.2],
  ['br-gru', 1.4],
]

const round = (value: number, digits: number) => Number(value.toFixed(digits))

function regionPrices(price: TypePrice): RegionPrice[] {
  return REGION_FACTORS.map(([id, factor]) => ({
    id,
    hourly: round(price.hourly * factor, 4),
    monthly: round(price.monthly * factor, 2),
  }))
}

type Row = [
  id: string,
  label: string,
  cls: CatalogueType['class'],
  memory: number,
  disk: number,
  transfer: number,
  vcpus: number,
  gpus: number,
  networkOut: number,
  hourly: number,
  monthly: number,
  backupHourly: number,
  backupMonthly: number,
]

const ROWS: Row[] = [
  ['g6-nanode-1', 'Nanode 1GB', 'nanode', 1024, 25600, 1000, 1, 0, 1000, 0.0075, 5, 0.003, 2],
  ['g6-standard-1', 'Compute 2GB', 'standard', 2048, 51200, 2000, 1, 0, 2000, 0.018, 12, 0.004, 2.5],
  ['g6-standard-2', 'Compute 4GB', 'standard', 4096, 81920, 4000, 2, 0, 4000, 0.036, 24, 0.008, 5],
  ['g6-standard-4', 'Compute 8GB', 'standard', 8192, 163840, 5000, 4, 0, 5000, 0.072, 48, 0.015, 10],
  ['g6-standard-6', 'Compute 16GB', 'standard', 16384, 327680, 8000, 6, 0, 6000, 0.144, 96, 0.03, 20],
  ['g6-standard-8', 'Compute 32GB', 'standard', 32768, 655360, 16000, 8, 0, 7000, 0.288, 192, 0.06, 40],
  ['g6-standard-16', 'Compute 64GB', 'standard', 65536, 1310720, 20000, 16, 0, 9000, 0.576, 384, 0.12, 80],
  ['g6-standard-20', 'Compute 96GB', 'standard', 98304, 1966080, 20000, 20, 0, 10000, 0.864, 576, 0.18, 120],
  [
    'g6-standard-24',
    'Compute 128GB',
    'standard',
    131072,
    2621440,
    20000,
    24,
    0,
    11000,
    1.152,
    768,
    0.24,
    160,
  ],
  [
    'g6-standard-32',
    'Compute 192GB',
    'standard',
    196608,
    3932160,
    20000,
    32,
    0,
    12000,
    1.728,
    1152,
    0.36,
    240,
  ],
  ['g7-highmem-1', 'Compute 24GB', 'highmem', 24576, 20480, 5000, 2, 0, 5000, 0.09, 60, 0.0075, 5],
  ['g7-highmem-2', 'Compute 48GB', 'highmem', 49152, 40960, 6000, 2, 0, 6000, 0.18, 120, 0.015, 10],
  ['g7-highmem-4', 'Compute 90GB', 'highmem', 92160, 92160, 7000, 4, 0, 7000, 0.36, 240, 0.03, 20],
  ['g7-highmem-8', 'Compute 150GB', 'highmem', 153600, 204800, 8000, 8, 0, 8000, 0.72, 480, 0.06, 40],
  ['g7-highmem-16', 'Compute 300GB', 'highmem', 307200, 348160, 9000, 16, 0, 9000, 1.44, 960, 0.12, 80],
  ['g6-dedicated-2', 'Dedicated 4GB', 'dedicated', 4096, 81920, 4000, 2, 0, 4000, 0.054, 36, 0.008, 5],
  ['g6-dedicated-4', 'Dedicated 8GB', 'dedicated', 8192, 163840, 5000, 4, 0, 5000, 0.108, 72, 0.015, 10],
  ['g6-dedicated-8', 'Dedicated 16GB', 'dedicated', 16384, 327680, 6000, 8, 0, 6000, 0.216, 144, 0.03, 20],
  ['g6-dedicated-16', 'Dedicated 32GB', 'dedicated', 32768, 655360, 7000, 16, 0, 7000, 0.432, 288, 0.06, 40],
  ['g6-dedicated-32', 'Dedicated 64GB', 'dedicated', 65536, 1310720, 8000, 32, 0, 8000, 0.864, 576, 0.12, 80],
  [
    'g6-dedicated-48',
    'Dedicated 96GB',
    'dedicated',
    98304,
    1966080,
    9000,
    48,
    0,
    9000,
    1.296,
    864,
    0.18,
    120,
  ],
  [
    'g6-dedicated-50',
    'Dedicated 128GB',
    'dedicated',
    131072,
    2560000,
    10000,
    50,
    0,
    10000,
    1.728,
    1152,
    0.24,
    160,
  ],
  [
    'g6-dedicated-56',
    'Dedicated 256GB',
    'dedicated',
    262144,
    5120000,
    11000,
    56,
    0,
    11000,
    3.456,
    2304,
    0.3,
    200,
  ],
  [
    'g6-dedicated-64',
    'Dedicated 512GB',
    'dedicated',
    524288,
    7372800,
    12000,
    64,
    0,
    12000,
    6.912,
    4608,
    0.36,
    240,
  ],
  [
    'g1-gpu-rtx6000-1',
    'Dedicated 32GB + RTX6000 GPU x1',
    'gpu',
    32768,
    655360,
    16000,
    8,
    1,
    10000,
    1.5,
    1000,
    0.06,
    40,
  ],
  [
    'g1-gpu-rtx6000-2',
    'Dedicated 64GB + RTX6000 GPU x2',
    'gpu',
    65536,
    1310720,
    20000,
    16,
    2,
    10000,
    3,
    2000,
    0.12,
    80,
  ],
  [
    'g1-gpu-rtx6000-3',
    'Dedicated 96GB + RTX6000 GPU x3',
    'gpu',
    98304,
    1966080,
    20000,
    20,
    3,
    10000,
    4.5,
    3000,
    0.18,
    120,
  ],
  [
    'g1-gpu-rtx6000-4',
    'Dedicated 128GB + RTX6000 GPU x4',
    'gpu',
    131072,
    2621440,
    20000,
    24,
    4,
    10000,
    6,
    4000,
    0.24,
    160,
  ],
]

export const COMPUTE_TYPES: CatalogueType[] = ROWS.map(
  ([id, label, cls, memory, disk, transfer, vcpus, gpus, networkOut, hourly, monthly, bh, bm]) => {
    const price = { hourly, monthly }
    const backups = { hourly: bh, monthly: bm }
    return {
      id,
      label,
      class: cls,
      memory,
      disk,
      transfer,
      vcpus,
      gpus,
      network_out: networkOut,
      price,
      region_prices: regionPrices(price),
      addons: { backups: { price: backups, region_prices: regionPrices(backups) } },
      successor: null,
    }
  },
)

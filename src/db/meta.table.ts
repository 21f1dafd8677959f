/** Server metadata (key/value), e.g. which default account the first start created. */
export interface MetaTable {
  key: string
  value: string
}

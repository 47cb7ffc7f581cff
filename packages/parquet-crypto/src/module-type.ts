/**
 * Module types of Parquet modular encryption (Encryption.md §4.4.2, "AAD suffix").
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md#442-aad-suffix
 * @module
 */

/**
 * The module type byte of an AAD suffix. Every separately encrypted piece of a file is one module.
 */
export const ModuleType = {
  /** The footer (`FileMetaData`); its AAD carries no ordinals. */
  FOOTER: 0,
  /** A column chunk's separately encrypted `ColumnMetaData` (`encrypted_column_metadata`). */
  COLUMN_META_DATA: 1,
  /** A data page (v1 or v2) body. */
  DATA_PAGE: 2,
  /** A dictionary page body. */
  DICTIONARY_PAGE: 3,
  /** The `PageHeader` of a data page. */
  DATA_PAGE_HEADER: 4,
  /** The `PageHeader` of a dictionary page. */
  DICTIONARY_PAGE_HEADER: 5,
  /** A `ColumnIndex`. */
  COLUMN_INDEX: 6,
  /** An `OffsetIndex`. */
  OFFSET_INDEX: 7,
  /** A `BloomFilterHeader`. */
  BLOOM_FILTER_HEADER: 8,
  /** A bloom filter bitset. */
  BLOOM_FILTER_BITSET: 9,
} as const;
/** A module type byte (0–9). */
export type ModuleType = (typeof ModuleType)[keyof typeof ModuleType];

/** Human-readable names, indexed by module type, for error messages. */
export const MODULE_NAMES: readonly string[] = [
  'footer',
  'column metadata',
  'data page',
  'dictionary page',
  'data page header',
  'dictionary page header',
  'column index',
  'offset index',
  'bloom filter header',
  'bloom filter bitset',
];

/**
 * Whether the module's AAD carries a page ordinal (data pages and data page headers only).
 * @param type - module type.
 * @returns true for {@link ModuleType.DATA_PAGE} and {@link ModuleType.DATA_PAGE_HEADER}.
 */
export function hasPageOrdinal(type: ModuleType): boolean {
  return type === ModuleType.DATA_PAGE || type === ModuleType.DATA_PAGE_HEADER;
}

/**
 * Whether AES_GCM_CTR_V1 encrypts this module with CTR instead of GCM (page bodies only, Encryption.md §4.2.2).
 * @param type - module type.
 * @returns true for data and dictionary page bodies.
 */
export function isPageBody(type: ModuleType): boolean {
  return type === ModuleType.DATA_PAGE || type === ModuleType.DICTIONARY_PAGE;
}

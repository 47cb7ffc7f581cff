// Schema hints for the canonical form (tools/peers/canon.mjs `Hint` tree) read from a file's footer by hyparquet,
// not by Parquetry's reader, so the peers' canonicalisation does not depend on the code under test.
// Spec: https://github.com/apache/parquet-format/blob/master/LogicalTypes.md (the annotations the hints carry).
import { hintTreeFromDuckDBSchema } from '../../../tools/peers/canon.mjs';

/** @typedef {import('../../../tools/peers/canon.mjs').Hint} Hint */


/**
 * Renders a hyparquet logical type in the text form canon.mjs's leafKind reads ("TimestampType(isAdjustedToUTC=1,
 * unit=MICROS)", "DecimalType(...)", "UuidType()", "Float16Type()", "VariantType()").
 * @param {any} lt
 * @returns {string | null}
 */
function logicalText(lt) {
  if (!lt || typeof lt.type !== 'string') return null;
  const name = lt.type === 'FLOAT16' ? 'Float16' : lt.type[0] + lt.type.slice(1).toLowerCase();
  const parts = [];
  if (lt.isAdjustedToUTC !== undefined) parts.push(`isAdjustedToUTC=${lt.isAdjustedToUTC ? 1 : 0}`);
  if (lt.unit !== undefined) parts.push(`unit=${lt.unit}`);
  return `${name}Type(${parts.join(', ')})`;
}

/**
 * The schema hint tree of a file (canon.mjs Hint), from hyparquet's footer parser; null when it cannot parse it.
 * @param {ArrayBuffer} ab
 * @returns {Promise<Hint | null>}
 */
export async function footerHints(ab) {
  try {
    const { parquetMetadata } = await import('hyparquet');
    const md = parquetMetadata(ab, { geoparquet: false });
    return hintTreeFromDuckDBSchema(
      md.schema.map((/** @type {any} */ s) => ({
        name: s.name,
        type: s.type ?? null,
        repetition_type: s.repetition_type ?? null,
        num_children: s.num_children ?? 0,
        converted_type: s.converted_type ?? null,
        scale: s.scale ?? null,
        logical_type: logicalText(s.logical_type),
      })),
    );
  } catch {
    return null;
  }
}


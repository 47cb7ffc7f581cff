// Re-exports for tamper.test.ts.
export { type FileDecryptionProperties, ModuleType, openEncryptedFooter } from '../src/index.js';
export { MODULE_NAMES as MODULE_NAMES_FOR_TESTS } from '../src/module-type.js';

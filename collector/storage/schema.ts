// The schema is collector/storage/schema/index.ts; scripts/dev-project.ts still imports the key kinds from here.
export type { KeyKind } from '../auth/key-kinds.ts';

// class-transformer's metadata store, which it ships untyped at this path (Nest's mapped types read it too).
declare module 'class-transformer/cjs/storage' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
  export const defaultMetadataStorage: MetadataStorage;
}

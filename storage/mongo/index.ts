export { MongoStore, COLLECTIONS, type MongoStoreOptions } from './store.js';

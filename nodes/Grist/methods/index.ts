import * as listSearch from './listSearch';

export { listSearch };

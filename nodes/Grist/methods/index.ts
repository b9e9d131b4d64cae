import * as listSearch from './listSearch';
import * as loadOptions from './loadOptions';
import * as resourceMapping from './resourceMapping';

export { listSearch, loadOptions, resourceMapping };

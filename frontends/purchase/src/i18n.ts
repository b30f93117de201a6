// The purchase remote's messages: each exposed module imports this first, so the catalogue is
// registered before anything renders; only the active language's file is fetched.
import { registerCatalogue } from '@bahi/i18n';

registerCatalogue('purchase', (lng) => import(`./locales/${lng}.json`));

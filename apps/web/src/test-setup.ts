import { i18n } from './i18n/i18n.ts';
import { resources } from './i18n/resources.ts';

// Unit tests render components synchronously: every namespace is there from the start, rather than
// loaded on first use as in the browser (i18n.ts).
for (const [language, namespaces] of Object.entries(resources)) {
  for (const [namespace, bundle] of Object.entries(namespaces)) {
    i18n.addResourceBundle(language, namespace, bundle, true, true);
  }
}
await i18n.loadNamespaces(Object.keys(resources.ko));

// The alert dialog and the toast list are loaded on first use in the browser (React.lazy). Loading
// them here once means a test's first dialog does not wait for a module to be transformed, which on
// a busy machine can take longer than `findByRole` waits.
await Promise.all([import('./components/alert-dialog-view.tsx'), import('./components/toast-list.tsx')]);

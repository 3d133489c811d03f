import { PRODUCT_REPOSITORY, type TemplateRepositoryCode } from '../../../../shared/templates-contract';
import type { Translate } from '../../lib/i18n';

/** "Mis plantillas", the product's name (SPEC's `{product}`), "Socioemocional". */
export const repositoryName = (t: Translate, code: TemplateRepositoryCode): string =>
  code === PRODUCT_REPOSITORY.code ? PRODUCT_REPOSITORY.name : t(`templates.repository.${code}`);

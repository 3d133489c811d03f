// Single sign-on's Spanish answers: the settings' field errors and the 403. One object the route, the
// domain and the tests read (a refused sign-in is a code; the login page has its texts).
import { SSO_CLIENT_ID_MAX, SSO_DOMAIN_MAX, SSO_ISSUER_MAX, SSO_SECRET_MAX } from '../../shared/sso-contract';

export const SSO_MESSAGES = {
  forbidden: 'Solo la administración de la institución puede configurar el ingreso con Google o Microsoft.',
  provider: 'Elige Google, Microsoft u otro proveedor.',
  issuer: 'Escribe la URL del emisor (issuer) del proveedor.',
  issuerUrl: 'La URL del emisor debe empezar con https:// y no llevar parámetros ni fragmento.',
  issuerLong: `La URL del emisor puede tener hasta ${SSO_ISSUER_MAX} caracteres.`,
  clientId: 'Escribe el identificador de cliente (client ID) que te dio el proveedor.',
  clientIdLong: `El identificador de cliente puede tener hasta ${SSO_CLIENT_ID_MAX} caracteres.`,
  secret: 'Escribe el secreto de cliente (client secret) que te dio el proveedor.',
  secretLong: `El secreto de cliente puede tener hasta ${SSO_SECRET_MAX} caracteres.`,
  domain: 'Escribe el dominio de correo de tu institución, por ejemplo colegio.cl.',
  domainInvalid: 'El dominio no es válido: escribe solo la parte después de la @, por ejemplo colegio.cl.',
  domainLong: `El dominio puede tener hasta ${SSO_DOMAIN_MAX} caracteres.`,
  enabled: 'Indica si el ingreso con el proveedor está activado.',
} as const;

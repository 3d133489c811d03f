// Single sign-on's Spanish answers: the settings' field errors and what the login page says of a refused
// sign-in. One object the routes, the domain and the tests read.
import type { SsoRefusal } from '../../shared/sso-contract';
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

/** What the login page says of each refusal (the SPA has the same texts in its i18n files). */
export const SSO_REFUSAL_MESSAGES: Readonly<Record<SsoRefusal, string>> = {
  unavailable: 'El ingreso con ese proveedor no está disponible. Ingresa con tu correo y contraseña.',
  email_needed: 'Escribe tu correo institucional y vuelve a elegir el proveedor.',
  failed: 'No se pudo completar el ingreso con el proveedor. Inténtalo de nuevo.',
  unverified: 'El proveedor no confirma que tu correo esté verificado, así que no puedes ingresar con él.',
  domain: 'Tu correo no pertenece al dominio que tu institución permite para este ingreso.',
  unknown: 'No hay una cuenta activa ni invitada con ese correo en tu institución. Pide una invitación a su administración.',
  throttled: 'Demasiados intentos de ingreso desde esta red. Espera unos minutos e inténtalo de nuevo.',
  no_access: 'Tu cuenta no tiene acceso a Hermes. Pide acceso al administrador de tu colegio.',
};

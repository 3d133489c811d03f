// The e-mail of a forgotten password: what it says (its transport is server/mail/transport.ts).

/** «Restablece tu contraseña»: the link, how long it works, and what to do when it was not you. */
export function resetMail({ to, name, link }: { to: string; name: string; link: string }) {
  return {
    to,
    subject: 'Restablece tu contraseña de Hermes',
    text: [
      `Hola, ${name}:`,
      '',
      'Recibimos una solicitud para restablecer la contraseña de tu cuenta de Hermes. Para elegir una nueva, abre este enlace:',
      '',
      link,
      '',
      'El enlace funciona una sola vez y durante 1 hora. Al cambiar la contraseña se cerrarán todas tus sesiones abiertas.',
      '',
      'Si no lo pediste tú, ignora este correo: tu contraseña no cambiará.',
    ].join('\n'),
  };
}

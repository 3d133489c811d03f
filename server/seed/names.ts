// Name pools for the demo schools. Common names in Chile and Mexico, written with their accents and ñ,
// because the product must handle them everywhere (search, sorting, e-mail addresses).

export interface NamePool {
  female: readonly string[];
  male: readonly string[];
  surnames: readonly string[];
}

export const CHILE: NamePool = {
  female: [
    'Sofía', 'Isidora', 'Florencia', 'Agustina', 'Emilia', 'Trinidad', 'Josefa', 'Antonella', 'Martina',
    'Catalina', 'Valentina', 'Maite', 'Amanda', 'Fernanda', 'Javiera', 'Constanza', 'Francisca', 'Camila',
    'Antonia', 'Ignacia', 'Renata', 'Julieta', 'Colomba', 'Rafaela', 'Millaray', 'Ayelén', 'Belén',
    'Daniela', 'Paula', 'Victoria', 'Magdalena', 'Elena', 'Amparo', 'Dominga', 'Laura', 'Pía',
    'Macarena', 'Carolina', 'Paulina', 'Claudia', 'Andrea', 'Lorena', 'Marcela', 'Verónica', 'Patricia',
    'Ximena', 'Soledad', 'Pamela', 'Alejandra', 'Gabriela', 'Natalia', 'Bárbara', 'Mónica', 'Cecilia',
    'Rocío', 'Solange', 'Karina', 'Jimena', 'Inés', 'Leonor',
  ],
  male: [
    'Martín', 'Agustín', 'Benjamín', 'Vicente', 'Mateo', 'Tomás', 'Joaquín', 'Maximiliano', 'Lucas',
    'Santiago', 'Gaspar', 'Cristóbal', 'Matías', 'Sebastián', 'Nicolás', 'Felipe', 'Ignacio', 'Diego',
    'Bastián', 'Alonso', 'Facundo', 'Julián', 'Simón', 'Emiliano', 'León', 'Damián', 'Renato',
    'José', 'Juan Pablo', 'Francisco', 'Andrés', 'Rodrigo', 'Gonzalo', 'Claudio', 'Cristián', 'Pablo',
    'Mauricio', 'Patricio', 'Hernán', 'Jorge', 'Luis', 'Marcelo', 'Sergio', 'Álvaro', 'Óscar', 'Raúl',
    'Ramón', 'Germán', 'Iván', 'Héctor', 'Rubén', 'Esteban', 'Fabián', 'Eduardo', 'Manuel', 'Alexis',
    'Ariel', 'Néstor', 'Lautaro', 'Efraín',
  ],
  surnames: [
    'González', 'Muñoz', 'Rojas', 'Díaz', 'Pérez', 'Soto', 'Contreras', 'Silva', 'Martínez', 'Sepúlveda',
    'Morales', 'Rodríguez', 'López', 'Fuentes', 'Hernández', 'Torres', 'Araya', 'Flores', 'Espinoza',
    'Valenzuela', 'Castillo', 'Tapia', 'Reyes', 'Gutiérrez', 'Castro', 'Pizarro', 'Álvarez', 'Vásquez',
    'Sánchez', 'Fernández', 'Ramírez', 'Carrasco', 'Gómez', 'Cortés', 'Herrera', 'Núñez', 'Jara',
    'Vergara', 'Rivera', 'Figueroa', 'Riquelme', 'García', 'Miranda', 'Bravo', 'Vera', 'Molina', 'Vega',
    'Campos', 'Sandoval', 'Orellana', 'Zúñiga', 'Olivares', 'Alarcón', 'Gallardo', 'Ortiz', 'Garrido',
    'Salazar', 'Guzmán', 'Henríquez', 'Saavedra', 'Navarro', 'Aguilera', 'Parra', 'Romero', 'Aravena',
    'Vidal', 'Moreno', 'Acuña', 'Cáceres', 'Ibáñez', 'Yáñez', 'Peña', 'Quiroz', 'Poblete', 'Lagos',
    'Mella', 'Cárdenas', 'Ñanco', 'Huenchumilla', 'Painemal', 'Catrileo', 'Millán', 'Bustos', 'Godoy',
  ],
};

export const MEXICO: NamePool = {
  female: [
    'Ximena', 'Valeria', 'Regina', 'María José', 'Renata', 'Camila', 'Sofía', 'Fernanda', 'Andrea',
    'Daniela', 'Guadalupe', 'Itzel', 'Citlali', 'Xóchitl', 'Mariana', 'Alejandra', 'Paola', 'Natalia',
    'Montserrat', 'Jimena', 'Abril', 'Frida', 'Dulce María', 'Ana Sofía', 'Yaretzi', 'Nayeli', 'Araceli',
    'Verónica', 'Leticia', 'Rocío', 'Marisol', 'Lucía', 'Elena', 'Carmen', 'Rosario', 'Beatriz',
    'Gabriela', 'Adriana', 'Patricia', 'Claudia', 'Mónica', 'Érika', 'Yolanda', 'Norma', 'Silvia',
  ],
  male: [
    'Santiago', 'Mateo', 'Sebastián', 'Leonardo', 'Emiliano', 'Diego', 'Miguel Ángel', 'Daniel',
    'Alejandro', 'Iker', 'Rodrigo', 'Ángel', 'José Luis', 'Juan Carlos', 'Luis Fernando', 'Jesús',
    'Cuauhtémoc', 'Tonatiuh', 'Joaquín', 'Héctor', 'Ramón', 'Octavio', 'Rubén', 'Efraín', 'Germán',
    'Francisco', 'Jorge', 'Ricardo', 'Arturo', 'Fernando', 'Javier', 'Eduardo', 'Raúl', 'Óscar',
    'Víctor', 'Martín', 'Andrés', 'Gerardo', 'Alfonso', 'Armando', 'Enrique', 'Ulises', 'Julián',
  ],
  surnames: [
    'Hernández', 'García', 'Martínez', 'López', 'González', 'Pérez', 'Rodríguez', 'Sánchez', 'Ramírez',
    'Cruz', 'Flores', 'Gómez', 'Morales', 'Vázquez', 'Reyes', 'Jiménez', 'Torres', 'Díaz', 'Gutiérrez',
    'Ruiz', 'Mendoza', 'Aguilar', 'Ortiz', 'Moreno', 'Castillo', 'Romero', 'Álvarez', 'Méndez', 'Chávez',
    'Rivera', 'Juárez', 'Ramos', 'Domínguez', 'Herrera', 'Medina', 'Castro', 'Vargas', 'Guzmán',
    'Velázquez', 'Muñoz', 'Rojas', 'Salazar', 'Contreras', 'Luna', 'Ortega', 'Estrada', 'Bautista',
    'Sandoval', 'Núñez', 'Ibarra', 'Cervantes', 'Trejo', 'Xicoténcatl', 'Cuevas', 'Peña', 'Zúñiga',
  ],
};

/** Lowercase ASCII for e-mail local parts: accents dropped, ñ → n, spaces → dots. */
export function emailSlug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.+|\.+$/g, '');
}

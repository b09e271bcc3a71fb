// Issue 47: Buckshot and Sorcery with the keyboard alone; the lobby, the rules pages and the
// logs under axe-core (the tests: keyboard.js).
import { keyboardGames, lobbyTest } from './keyboard.js';

keyboardGames('buckshot', 'sorcery');
lobbyTest();

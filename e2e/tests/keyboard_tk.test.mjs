// Issue 47: Three Kingdoms played with the keyboard alone, under axe-core (keyboard.js).
import { keyboardGames } from './keyboard.js';

keyboardGames('three-kingdoms');

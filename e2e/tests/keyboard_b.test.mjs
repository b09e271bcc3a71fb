// Issue 47: Ivanhoe and Wolf Pack played with the keyboard alone, under axe-core (keyboard.js).
import { keyboardGames } from './keyboard.js';

keyboardGames('ivanhoe', 'wolfpack');

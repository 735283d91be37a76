import { describe, expect, it } from 'vitest';
import { contradictsAnswer } from '../../shared/contradiction.ts';
import { PUSHBACKS } from './user-model.ts';

describe('the simulated user pushing back', () => {
  it.each(PUSHBACKS)('"%s" opening a question asked again reads as a pushback to the client', (opening) => {
    expect(contradictsAnswer(`${opening} 0-dimensional biomaterials show inductive properties.`)).toBe(true);
  });
});

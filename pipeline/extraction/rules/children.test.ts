import { describe, expect, it } from 'vitest';
import { namedChildren } from './children.js';

const shown = (sentence: string) => namedChildren(sentence).map((f) => `${f.predicate} ${f.object}`);

describe('children named together after a group word', () => {
  it('takes the relation from "boys" or "girls", else from a first name compromise knows', () => {
    expect(shown('we have two girls, Maisie and Ruby')).toEqual(['has_daughter Maisie', 'has_daughter Ruby']);
    expect(shown('Children: Oscar (10), Sophie (8)')).toEqual(['has_son Oscar', 'has_daughter Sophie']);
  });

  it('leaves a name of unknown gender to the other rules', () => {
    expect(shown('the kids, Quillon and Sophie, are at camp')).toEqual(['has_daughter Sophie']);
  });

  it('leaves other people’s children and lists that name no children', () => {
    expect(shown("my sister's kids, Oscar and Sophie, are staying over")).toEqual([]);
    expect(shown('took the kids to Rome and Paris')).toEqual([]);
  });
});

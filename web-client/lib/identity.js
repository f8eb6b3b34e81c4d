//! The guest identity of this browser: created once from a name (or brought over from another
//! device with a recovery code), kept in localStorage so it survives a reload, and checked
//! against the server on start.

import * as api from './api.js';

/** @typedef {import('./protocol.js').Guest} Guest */

const STORAGE_KEY = 'warroom.guest';

/** @returns {Guest | null} */
export function saved() {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const guest = raw ? JSON.parse(raw) : null;
    return guest && typeof guest.token === 'string' ? guest : null;
  } catch {
    return null;
  }
}

/** Forgets the identity (the server refused its token). */
export function forget() {
  localStorage.removeItem(STORAGE_KEY);
}

/**
 * The saved identity if the server still knows its token; `null` when it must be chosen again.
 * A network failure keeps the saved identity: the server may only be restarting.
 * @returns {Promise<Guest | null>}
 */
export async function restore() {
  const guest = saved();
  if (!guest) return null;
  try {
    const who = await api.me(guest.token);
    return { ...guest, name: who.name, id: who.id };
  } catch (error) {
    if (error instanceof api.ApiError && error.status === 401) {
      forget();
      return null;
    }
    return guest;
  }
}

/**
 * Creates a guest identity with this display name and keeps it.
 * @param {string} name
 * @returns {Promise<Guest>}
 */
export async function create(name) {
  const guest = await api.createGuest(name.trim());
  localStorage.setItem(STORAGE_KEY, JSON.stringify(guest));
  return guest;
}

/**
 * Takes an identity onto this browser with its recovery code, replacing the one kept here.
 * @param {string} code
 * @returns {Promise<Guest>}
 */
export async function recover(code) {
  const guest = await api.recover(code.trim());
  localStorage.setItem(STORAGE_KEY, JSON.stringify(guest));
  return guest;
}

/**
 * Renames the kept identity on the server and here.
 * @param {Guest} guest
 * @param {string} name
 * @returns {Promise<Guest>}
 */
export async function rename(guest, name) {
  const me = await api.rename(guest.token, name);
  const renamed = { ...guest, name: me.name };
  localStorage.setItem(STORAGE_KEY, JSON.stringify(renamed));
  return renamed;
}

// Package common is the base every part of the interactive inspector shares: Common (styles,
// keymap, size, log and the maskers, passed by pointer and never copied), Styles and the
// painters NewStyles computes once, the KeyMap from which help and README's key table are
// generated, StatusMsg for the footer, and Rect. It sits below package ui and the panes
// that are packages of their own, so they can share it without importing ui.
package common

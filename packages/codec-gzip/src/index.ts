/** placeholder @packageDocumentation */ export {};

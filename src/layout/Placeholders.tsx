// Screens of later issues: their routes and permission checks exist now (menu and deep links
// work), the content says 建设中. Every screen has been built: none is left here.
export {};

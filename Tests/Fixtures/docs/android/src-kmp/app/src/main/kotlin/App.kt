class App

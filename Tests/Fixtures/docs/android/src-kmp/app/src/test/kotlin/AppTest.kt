class AppTest

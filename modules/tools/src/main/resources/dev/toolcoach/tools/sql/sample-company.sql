-- A small company: departments, employees (with managers), projects and who works on them.
CREATE TABLE departments (
    id       INT PRIMARY KEY,
    name     VARCHAR(40) NOT NULL UNIQUE,
    location VARCHAR(40) NOT NULL,
    budget   DECIMAL(12, 2) NOT NULL
);

CREATE TABLE employees (
    id            INT PRIMARY KEY,
    name          VARCHAR(60) NOT NULL,
    title         VARCHAR(60) NOT NULL,
    department_id INT NOT NULL REFERENCES departments(id),
    manager_id    INT REFERENCES employees(id),
    salary        DECIMAL(10, 2) NOT NULL,
    hire_date     DATE NOT NULL
);

CREATE TABLE projects (
    id            INT PRIMARY KEY,
    name          VARCHAR(60) NOT NULL,
    department_id INT NOT NULL REFERENCES departments(id),
    start_date    DATE NOT NULL,
    end_date      DATE,
    budget        DECIMAL(12, 2) NOT NULL
);

CREATE TABLE assignments (
    employee_id INT NOT NULL REFERENCES employees(id),
    project_id  INT NOT NULL REFERENCES projects(id),
    role        VARCHAR(40) NOT NULL,
    hours       INT NOT NULL,
    PRIMARY KEY (employee_id, project_id)
);

INSERT INTO departments VALUES
    (1, 'Engineering', 'Houston', 1200000.00),
    (2, 'Trading', 'Houston', 2500000.00),
    (3, 'Legal', 'Portland', 600000.00),
    (4, 'Finance', 'London', 900000.00);

INSERT INTO employees VALUES
    (1, 'Ada Lovelace', 'VP Engineering', 1, NULL, 210000.00, DATE '2015-03-01'),
    (2, 'Grace Hopper', 'Staff Engineer', 1, 1, 175000.00, DATE '2016-07-15'),
    (3, 'Alan Turing', 'Engineer', 1, 2, 132000.00, DATE '2019-01-07'),
    (4, 'Edsger Dijkstra', 'Engineer', 1, 2, 128500.00, DATE '2020-09-21'),
    (5, 'Sara Shackleton', 'Counsel', 3, NULL, 165000.00, DATE '2014-05-12'),
    (6, 'Mark Taylor', 'Senior Counsel', 3, 5, 158000.00, DATE '2017-11-01'),
    (7, 'John Arnold', 'Head of Trading', 2, NULL, 250000.00, DATE '2013-02-18'),
    (8, 'Phillip Allen', 'Trader', 2, 7, 185000.00, DATE '2016-04-04'),
    (9, 'Jeff Dasovich', 'Analyst', 2, 7, 98000.00, DATE '2021-06-30'),
    (10, 'Sally Beck', 'CFO', 4, NULL, 230000.00, DATE '2012-08-27'),
    (11, 'Rick Buy', 'Risk Officer', 4, 10, 172000.00, DATE '2018-10-02'),
    (12, 'Kay Mann', 'Accountant', 4, 10, 91000.00, DATE '2022-01-10');

INSERT INTO projects VALUES
    (1, 'Trade Capture', 1, DATE '2023-01-09', DATE '2023-12-15', 450000.00),
    (2, 'Risk Dashboard', 4, DATE '2023-04-03', NULL, 210000.00),
    (3, 'Contract Archive', 3, DATE '2022-06-01', DATE '2023-02-28', 120000.00),
    (4, 'Gas Desk Rollout', 2, DATE '2024-02-12', NULL, 800000.00);

INSERT INTO assignments VALUES
    (2, 1, 'lead', 900),
    (3, 1, 'developer', 1400),
    (4, 1, 'developer', 1250),
    (8, 1, 'user', 120),
    (11, 2, 'lead', 600),
    (12, 2, 'analyst', 480),
    (4, 2, 'developer', 300),
    (6, 3, 'lead', 350),
    (5, 3, 'reviewer', 90),
    (7, 4, 'sponsor', 60),
    (8, 4, 'lead', 700),
    (9, 4, 'analyst', 520),
    (3, 4, 'developer', 410);
